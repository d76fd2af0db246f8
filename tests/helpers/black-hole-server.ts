// A TCP peer that accepts connections and never writes a byte: what a Redis URL pointing at the wrong
// service, a black-hole proxy or a stopped server looks like to a client.
//
//   const hole = await startBlackHole();
//   await connectRedis({ url: hole.url });  // must give up, not wait forever
//   await hole.close();
import net from "node:net";

export interface BlackHole {
  /** `redis://127.0.0.1:<port>/0` */
  url: string;
  /** Connections accepted so far. */
  connections(): number;
  /** Bytes the clients sent (a client that gave up still said something first). */
  received(): number;
  close(): Promise<void>;
}

export async function startBlackHole(): Promise<BlackHole> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  let bytes = 0;
  const server = net.createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on("data", (chunk) => (bytes += chunk.length));
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}/0`,
    connections: () => accepted,
    received: () => bytes,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
