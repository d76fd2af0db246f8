// ipuaro's own redis-server, when the project uses it and it is not running, is started before a
// command loads the modules it runs: the server starts and reads its data (≈ 0.25 s for a 12K-file
// index) in its own process meanwhile, instead of after them. Problems (a bad config or path, no
// redis-server) are left for the command, which meets them again when it opens the store and reports them.

export async function startRedisEarly(target: string): Promise<void> {
  try {
    const [{ loadConfig }, { startRedisEarly: start }, { resolveProjectRoot }] = await Promise.all([
      import("../config/loader.js"),
      import("../store/acquire-redis.js"),
      import("./project-root.js"),
    ]);
    start(loadConfig({ projectRoot: resolveProjectRoot(target) }).config.redis);
  } catch {
    // reported by the command
  }
}
