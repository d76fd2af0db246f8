// Where Ollama is, as a URL the client can use. OLLAMA_HOST is often "127.0.0.1:11434", ":11434" or the
// server's bind address "0.0.0.0"; all of them mean a local server. Kept free of the ollama package so
// the config loader can use it.
import { IpuaroError } from "../errors.js";

const DEFAULT_OLLAMA_PORT = "11434";

/**
 * Throws a non-recoverable config IpuaroError naming the bad value (never a bare `TypeError: Invalid URL`):
 * the loader turns it into a config error for OLLAMA_HOST.
 */
export function normalizeOllamaHost(host: string): string {
  let h = host.trim() || `127.0.0.1:${DEFAULT_OLLAMA_PORT}`;
  if (h.startsWith(":")) h = `127.0.0.1${h}`;
  const explicit = h.includes("://");
  let url: URL;
  try {
    url = new URL(explicit ? h : `http://${h}`);
  } catch {
    throw invalidHost(host, "is not a host:port or URL");
  }
  // fetch speaks nothing else; "ftp://…" would only fail later with an obscure "fetch failed".
  if (url.protocol !== "http:" && url.protocol !== "https:") throw invalidHost(host, `uses ${url.protocol} (only http: and https: are supported)`);
  const port = url.port || (explicit ? (url.protocol === "https:" ? "443" : "80") : DEFAULT_OLLAMA_PORT);
  // A bind-all address is where the server listens, not where to connect.
  const hostname = url.hostname === "0.0.0.0" || url.hostname === "[::]" ? "127.0.0.1" : url.hostname;
  return `${url.protocol}//${hostname}:${port}`;
}

function invalidHost(host: string, why: string): IpuaroError {
  return new IpuaroError("config", `${JSON.stringify(host)} ${why}`, {
    recoverable: false,
    suggestion: "Use host:port or a URL, e.g. 127.0.0.1:11434 or http://gpu-box:11434.",
  });
}
