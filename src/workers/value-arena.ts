// Packs a task's Redis values, already framed as RESP HSET commands, into one byte buffer that is
// transferred (not copied) to the main thread. The main thread writes each command's bytes to the
// socket as they are: no per-value argument handling, no copies or UTF-8 encoding by the client, far
// less garbage on the thread that runs the UI. Views of the values themselves come back too (the graph
// reads the facts).
// One arena serves every task of a thread: `finish` copies out what was used, so the scratch buffer is
// kept (a fresh megabyte per task cost a worker ~0.15 s of page faults on a 12K-file index).
const INITIAL_BYTES = 1 << 20;
/** Room for a bulk string header: `$`, up to 10 digits, CRLF. */
const HEADER_ROOM = 13;
const CR = 13;
const LF = 10;
const encoder = new TextEncoder();
/** Bytes of a bulk string header (`$`, the length's digits, CRLF). */
const headerLength = (payloadBytes: number) => String(payloadBytes).length + 3;

export class ValueArena {
  private bytes = new Uint8Array(INITIAL_BYTES);
  private used = 0;
  /** [start, end) of each bulk string's payload, in the order they were added. */
  private spans: number[] = [];
  /** [start, end) of each finished command. */
  private commandSpans: number[] = [];
  private commandStart = -1;

  /** Forgets the previous task's content; the scratch buffer stays. */
  reset(): void {
    this.used = 0;
    this.spans = [];
    this.commandSpans = [];
    this.commandStart = -1;
  }

  private ensure(extra: number): void {
    const need = this.used + extra;
    if (need <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < need) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.bytes.subarray(0, this.used));
    this.bytes = grown;
  }

  /** Starts a command of `argc` arguments (the name counts), e.g. HSET key f1 v1 … : 2 + 2n. */
  beginCommand(argc: number, name: string, key: string): void {
    if (this.commandStart !== -1) throw new Error("a command is already open");
    this.commandStart = this.used;
    const head = `*${argc}\r\n`;
    this.ensure(head.length);
    this.used += encoder.encodeInto(head, this.bytes.subarray(this.used)).written;
    this.bulk(name);
    this.bulk(key);
  }

  endCommand(): void {
    if (this.commandStart === -1) throw new Error("no command is open");
    this.commandSpans.push(this.commandStart, this.used);
    this.commandStart = -1;
  }

  /** Adds a RESP bulk string; returns the slot of its payload, turned into a view by `finish`. */
  bulk(value: string): number {
    // UTF-8 needs at most 3 bytes per UTF-16 unit; most code is ASCII, so value.length is the best guess.
    this.ensure(HEADER_ROOM + value.length * 3 + 2);
    const at = this.used + headerLength(value.length);
    return this.closeBulk(at, at + encoder.encodeInto(value, this.bytes.subarray(at)).written);
  }

  /**
   * Adds a bulk string whose payload `write` puts into the buffer from `at` (with `room` bytes free),
   * returning where it ends, or -1 if `room` was too small; then nothing is added and -1 is returned.
   */
  bulkWritten(guess: number, room: number, write: (bytes: Uint8Array, at: number) => number): number {
    this.ensure(HEADER_ROOM + room + 2);
    const at = this.used + headerLength(guess);
    const end = write(this.bytes, at);
    return end === -1 ? -1 : this.closeBulk(at, end);
  }

  /**
   * The payload was written right after a header sized for a guessed length; if its real length needs a
   * longer or shorter header, the payload moves once. Returns its slot.
   */
  private closeBulk(at: number, end: number): number {
    const written = end - at;
    const header = `$${written}\r\n`;
    const payload = this.used + header.length;
    // Moved before the header is written: a longer header than guessed would overwrite its start.
    if (payload !== at) this.bytes.copyWithin(payload, at, end);
    encoder.encodeInto(header, this.bytes.subarray(this.used));
    this.spans.push(payload, payload + written);
    this.used = payload + written;
    this.bytes[this.used++] = CR;
    this.bytes[this.used++] = LF;
    return this.spans.length / 2 - 1;
  }

  get isEmpty(): boolean {
    return this.used === 0;
  }

  /**
   * The final buffer (to transfer), one view per command, and a view of any payload slot on request
   * (only the values the main thread reads need one; each view crosses the thread as an object).
   */
  finish(): { buffer: ArrayBuffer; view(slot: number): Uint8Array; commands: Uint8Array[] } {
    if (this.commandStart !== -1) throw new Error("a command is still open");
    const buffer = this.bytes.buffer.slice(0, this.used) as ArrayBuffer;
    const spanView = (spans: number[], i: number) => new Uint8Array(buffer, spans[i], (spans[i + 1] as number) - (spans[i] as number));
    const spans = this.spans;
    const commands: Uint8Array[] = [];
    for (let i = 0; i < this.commandSpans.length; i += 2) commands.push(spanView(this.commandSpans, i));
    return { buffer, view: (slot) => spanView(spans, slot * 2), commands };
  }
}
