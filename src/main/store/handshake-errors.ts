// What a Redis handshake that failed on the server's answer means, and what to do about it. The raw
// texts misled: a server with `requirepass` answers ioredis's HELLO with "NOAUTH HELLO must be called
// with the client already authenticated…", and a port that is not Redis (an HTTP server) makes the
// parser say `Unknown RESP type 72 "H". Please report this.`; both came with "Start Redis at …".

export interface RedisProblem {
  message: string;
  suggestion: string;
}

/** Where the server was tried, as connection.ts describes it (a URL with the password masked, or a socket path). */
export interface ProblemTarget {
  description: string;
  socketPath: string | null;
}

const PARSER_ERROR = /^(?:Unknown RESP type (\d+)|Protocol error)/;

function errorText(err: unknown): string | null {
  return err instanceof Error ? err.message : null;
}

/** The target's URL with a placeholder password in it: what the user should write. */
function urlWithPassword(description: string, user = ""): string {
  try {
    const url = new URL(description);
    if (url.protocol === "redis:" || url.protocol === "rediss:") {
      url.username = user;
      url.password = "PASSWORD";
      return url.toString();
    }
  } catch {
    // not a URL: fall through to the generic form
  }
  return `redis://${user}:PASSWORD@host:port`;
}

/** A socket URL has no room for a password (unix:///path), so the advice is TCP or ipuaro's own server. */
function passwordAdvice(target: ProblemTarget, what: string): string {
  if (target.socketPath) {
    return `${what} A unix socket URL cannot carry a password: connect over TCP with redis://:PASSWORD@host:port in IPUARO_REDIS_URL / redis.url, or unset them so ipuaro starts its own redis-server.`;
  }
  return `${what} It goes in the URL: IPUARO_REDIS_URL=${urlWithPassword(target.description)} (or redis.url; with an ACL user, ${urlWithPassword(target.description, "USER")}).`;
}

/** The problem a handshake error names (auth refused, not Redis at all), or null for any other error. */
export function handshakeProblem(err: unknown, target: ProblemTarget): RedisProblem | null {
  const text = errorText(err);
  if (text === null) return null;
  const where = target.description;
  if (/^NOAUTH\b/.test(text)) {
    return { message: `Redis at ${where} requires a password, and none was given`, suggestion: passwordAdvice(target, "Give ipuaro the server's password (its requirepass).") };
  }
  if (/^WRONGPASS\b/.test(text)) {
    return {
      message: `Redis at ${where} refused the password: wrong user name or password, or the user is disabled (WRONGPASS)`,
      suggestion: passwordAdvice(target, "Check the password (and user) ipuaro was given."),
    };
  }
  const parser = PARSER_ERROR.exec(text);
  if (parser) {
    const first = parser[1] ? String.fromCharCode(Number(parser[1])) : null;
    const looksHttp = first === "H";
    const answered = first ? ` (its answer starts with ${JSON.stringify(first)}${looksHttp ? ", as an HTTP server's does" : ""})` : "";
    return {
      message: `The server at ${where} does not speak the Redis protocol${answered}`,
      suggestion: "That address is some other service: point IPUARO_REDIS_URL / redis.url at a Redis server (port 6379 unless it was changed), or unset them so ipuaro starts its own redis-server.",
    };
  }
  return null;
}
