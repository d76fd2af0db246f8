// Where Ollama is, as a URL the client can use. OLLAMA_HOST is often "127.0.0.1:11434", ":11434" or the
// server's bind address "0.0.0.0"; all of them mean a local server. Kept free of the ollama package so
// the config loader can use it.
const DEFAULT_OLLAMA_PORT = "11434";

export function normalizeOllamaHost(host: string): string {
  let h = host.trim() || `127.0.0.1:${DEFAULT_OLLAMA_PORT}`;
  if (h.startsWith(":")) h = `127.0.0.1${h}`;
  const explicit = h.includes("://");
  const url = new URL(explicit ? h : `http://${h}`);
  const port = url.port || (explicit ? (url.protocol === "https:" ? "443" : "80") : DEFAULT_OLLAMA_PORT);
  // A bind-all address is where the server listens, not where to connect.
  const hostname = url.hostname === "0.0.0.0" || url.hostname === "[::]" ? "127.0.0.1" : url.hostname;
  return `${url.protocol}//${hostname}:${port}`;
}
