// Grapheme clusters whose width terminals disagree on (and the usual wide and combining cases), shared
// by the width and painting tests.
export const THUMBS_MEDIUM = "👍🏽";
export const FLAG_UA = "🇺🇦";
export const KEYCAP_ONE = "1\ufe0f\u20e3";
export const HEART = "\u2764\ufe0f";
export const FAMILY = "👨\u200d👩\u200d👧";
export const RAINBOW_FLAG = "🏳\ufe0f\u200d🌈";
