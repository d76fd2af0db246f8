// Used only when ipuaro runs from its TypeScript sources (tests, tsx): a worker thread does not inherit
// the tsx loader, so this plain-JS entry registers it and then loads the real worker module.
import { register } from "tsx/esm/api";

register();
const workerUrl = process.env.IPUARO_DEV_WORKER ?? new URL("./index.worker.ts", import.meta.url).href;
const mod = await import(workerUrl);
export default mod.default;
