// Child process for managed-redis tests: acquires ipuaro's redis-server for IPUARO_HOME, prints the
// server pid, and holds the connection until killed (to play "another ipuaro" or a crashed one).
import { acquireManagedRedis } from "../../../src/main/store/managed-redis.js";

const handle = await acquireManagedRedis({ home: process.env.IPUARO_HOME! });
process.stdout.write(`pid=${handle.managed!.pid}\n`);
process.stdin.on("end", () => {
  void handle.release().then(() => process.exit(0));
});
process.stdin.resume();
