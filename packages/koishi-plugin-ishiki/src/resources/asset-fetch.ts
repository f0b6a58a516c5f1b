import { Buffer } from "node:buffer";
import { ResourceError } from "./resource-error.js";

/** Limits of a lazy asset fetch (RS-28, QA-9). */
export interface AssetFetchLimits {
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
}

export const ASSET_FETCH_LIMITS: AssetFetchLimits = { maxBytes: 20 * 1024 * 1024, timeoutMs: 30_000, maxRedirects: 5 };

export interface FetchedAsset {
  bytes: Uint8Array;
  /** The type the source announced (`data:` type, `Content-Type`), if any. */
  announced?: string;
}

function mib(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
}

function decodeData(subject: string, src: string): FetchedAsset {
  const comma = src.indexOf(",");
  if (comma < 0) throw new ResourceError("resource_read_failed", `${subject}: malformed data: URL; it has no comma`);
  const header = src.slice(5, comma);
  const body = src.slice(comma + 1);
  const params = header.split(";");
  const announced = params[0] || undefined;
  if (params.slice(1).includes("base64")) return { bytes: Buffer.from(body, "base64"), announced };
  try {
    return { bytes: Buffer.from(decodeURIComponent(body), "utf8"), announced: announced ?? "text/plain" };
  } catch (error) {
    throw new ResourceError("resource_read_failed", `${subject}: malformed percent-encoding in data: URL`, { cause: error });
  }
}

async function readCapped(subject: string, response: Response, limits: AssetFetchLimits): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared > limits.maxBytes) {
    await response.body?.cancel();
    throw new ResourceError("resource_too_large", `${subject}: the source declares ${mib(declared)}, above the ${mib(limits.maxBytes)} asset limit`);
  }
  const parts: Uint8Array[] = [];
  let total = 0;
  if (response.body) {
    for await (const part of response.body as unknown as AsyncIterable<Uint8Array>) {
      total += part.length;
      if (total > limits.maxBytes) {
        await response.body.cancel().catch(() => undefined);
        throw new ResourceError("resource_too_large", `${subject}: the source sent more than the ${mib(limits.maxBytes)} asset limit`);
      }
      parts.push(part);
    }
  }
  return Buffer.concat(parts, total);
}

async function fetchHttp(subject: string, src: string, limits: AssetFetchLimits): Promise<FetchedAsset> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let url = new URL(src);
  try {
    for (let redirects = 0; ; redirects++) {
      const response = await fetch(url, { redirect: "manual", signal });
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        if (redirects >= limits.maxRedirects) {
          throw new ResourceError("resource_read_failed", `${subject}: fetch failed: more than ${limits.maxRedirects} redirects`);
        }
        url = new URL(location, url);
        if (url.protocol !== "http:" && url.protocol !== "https:") {
          throw new ResourceError("resource_unavailable", `${subject}: the source redirects to a ${url.protocol} URL; only http(s) is fetched`);
        }
        continue;
      }
      if (response.status < 200 || response.status > 299) {
        await response.body?.cancel();
        throw new ResourceError("resource_read_failed", `${subject}: fetch failed: HTTP ${response.status} ${response.statusText}`.trimEnd());
      }
      const announced = response.headers.get("content-type")?.split(";")[0].trim() || undefined;
      return { bytes: await readCapped(subject, response, limits), announced };
    }
  } catch (error) {
    if (error instanceof ResourceError) throw error;
    if (signal.aborted) {
      throw new ResourceError("resource_read_failed", `${subject}: fetch failed: no complete response within ${limits.timeoutMs / 1000} s`, { cause: error });
    }
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    throw new ResourceError("resource_read_failed", `${subject}: fetch failed: ${cause}`, { cause: error });
  }
}

/**
 * Fetches an asset's bytes from its registered source (RS-28): `data:`, `base64://` and `http(s):` with the
 * given limits. Every other source, `file:` included, is refused with `resource_unavailable`. `subject` (the
 * asset URL) names the failure; the source itself never appears in messages.
 */
export async function fetchAsset(subject: string, src: string, limits: AssetFetchLimits): Promise<FetchedAsset> {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(src)?.[1].toLowerCase();
  let fetched: FetchedAsset;
  if (scheme === "data") fetched = decodeData(subject, src);
  else if (scheme === "base64" && src.startsWith("base64://")) fetched = { bytes: Buffer.from(src.slice(9), "base64") };
  else if (scheme === "http" || scheme === "https") fetched = await fetchHttp(subject, src, limits);
  else throw new ResourceError("resource_unavailable", `${subject}: its source is not fetchable; only data:, base64:// and http(s) sources are read`);
  if (fetched.bytes.length > limits.maxBytes) {
    throw new ResourceError("resource_too_large", `${subject}: ${mib(fetched.bytes.length)} is above the ${mib(limits.maxBytes)} asset limit`);
  }
  return fetched;
}

/** A filename safe to show, from an http(s) source's last path segment; undefined otherwise. */
export function sourceBasename(src: string): string | undefined {
  if (!/^https?:/i.test(src)) return undefined;
  try {
    const last = decodeURIComponent(new URL(src).pathname.split("/").pop() ?? "");
    const safe = last.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^[._]+/, "").slice(0, 100);
    return /[A-Za-z0-9]/.test(safe) ? safe : undefined;
  } catch {
    return undefined;
  }
}
