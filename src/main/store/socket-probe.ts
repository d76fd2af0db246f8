// A one-shot PING over a raw socket. Used to poll a starting redis-server: a full ioredis client would
// bring its own reconnect loop and error events, which is the wrong tool for "is it up yet?".
import net from "node:net";

/** `ready`: PONG. `loading`: up but still reading its AOF. `down`: no answer (or no socket). */
export type ProbeResult = "ready" | "loading" | "down";

export function probeRedisSocket(socketPath: string, timeoutMs = 1000): Promise<ProbeResult> {
  return new Promise((resolve) => {
    let settled = false;
    let reply = "";
    const socket = net.createConnection({ path: socketPath });
    const finish = (result: ProbeResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => finish("down"), timeoutMs);
    socket.on("connect", () => socket.write("PING\r\n"));
    socket.on("data", (chunk) => {
      reply += chunk.toString("latin1");
      if (!reply.includes("\r\n")) return;
      if (reply.startsWith("+PONG")) finish("ready");
      else if (reply.startsWith("-LOADING")) finish("loading");
      else finish("down");
    });
    socket.on("error", () => finish("down"));
    socket.on("close", () => finish("down"));
  });
}
