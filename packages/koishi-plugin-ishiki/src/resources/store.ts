import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { ASSET_FETCH_LIMITS, fetchAsset, type AssetFetchLimits } from "./asset-fetch.js";
import { writeAtomic } from "./atomic-write.js";
import { stageFile } from "./staged-file.js";
import { sharedByteCache, type ByteCache } from "./byte-cache.js";
import type { ArtifactDeclaration, AssetDeclaration, ResourceMetadata } from "./resource-metadata.js";
import type { ResourceStore } from "./resource-store.js";
import { ResourceError } from "./resource-error.js";
import { isConcreteMediaType, sniffMediaType } from "./sniff.js";

export interface ResourceStoreOptions {
  /** The runtime home; the store lives in `<home>/resources`. */
  home: string;
  cache?: ByteCache;
  fetchLimits?: Partial<AssetFetchLimits>;
}

function sha256(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex");
}

async function readIfExists(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") return undefined;
    throw error;
  }
}

/** The artifact namespace a tool name reduces to (RS-30). */
export function artifactNamespace(tool: string): string {
  return tool.replace(/[^A-Za-z0-9_-]/g, "") || "tool";
}

/** Creates one runtime's store; bytes it reads are cached in the process-wide cache under a key of its own. */
export function createResourceStore(options: ResourceStoreOptions): ResourceStore {
  const root = join(options.home, "resources");
  const cache = options.cache ?? sharedByteCache;
  const limits: AssetFetchLimits = { ...ASSET_FETCH_LIMITS, ...options.fetchLimits };
  const owner = randomUUID();
  const fetches = new Map<string, Promise<{ bytes: Uint8Array; metadata: ResourceMetadata }>>();

  const assetPaths = (id: string) => ({ bytes: join(root, "assets", id), sidecar: join(root, "assets", `${id}.json`) });
  const artifactPaths = (namespace: string, name: string) => {
    const base = join(root, "artifacts", namespace, name);
    return { bytes: `${base}.blob`, sidecar: `${base}.json`, view: `${base}.view` };
  };

  async function sidecar(path: string): Promise<ResourceMetadata | undefined> {
    const raw = await readIfExists(path);
    return raw === undefined ? undefined : (JSON.parse(raw.toString("utf8")) as ResourceMetadata);
  }

  async function cachedFile(path: string): Promise<Uint8Array | undefined> {
    const hit = cache.get(owner, path);
    if (hit) return hit;
    const bytes = await readIfExists(path);
    if (bytes) cache.set(owner, path, bytes);
    return bytes;
  }

  async function fetchAndStore(id: string, metadata: ResourceMetadata): Promise<{ bytes: Uint8Array; metadata: ResourceMetadata }> {
    const subject = `asset://${id}`;
    if (metadata.src === undefined) throw new ResourceError("resource_unavailable", `${subject}: it has no source to fetch`);
    const fetched = await fetchAsset(subject, metadata.src, limits);
    const paths = assetPaths(id);
    const mediaType = isConcreteMediaType(metadata.mediaType)
      ? metadata.mediaType
      : (sniffMediaType(fetched.bytes) ??
        (isConcreteMediaType(fetched.announced) && fetched.announced !== "application/octet-stream" ? fetched.announced : "application/octet-stream"));
    const updated: ResourceMetadata = {
      ...metadata,
      mediaType,
      byteLength: fetched.bytes.length,
      contentHash: sha256(fetched.bytes),
      fetchedAt: new Date().toISOString(),
    };
    await writeAtomic(paths.bytes, fetched.bytes);
    await writeAtomic(paths.sidecar, JSON.stringify(updated, null, 2));
    cache.set(owner, paths.bytes, fetched.bytes);
    return { bytes: fetched.bytes, metadata: updated };
  }

  async function readAsset(id: string): Promise<{ bytes: Uint8Array; metadata: ResourceMetadata }> {
    const paths = assetPaths(id);
    const metadata = await sidecar(paths.sidecar);
    if (!metadata) throw new ResourceError("resource_not_found", `asset://${id}: no such asset in this runtime`);
    const bytes = metadata.fetchedAt === undefined ? undefined : await cachedFile(paths.bytes);
    if (bytes) return { bytes, metadata };
    // Concurrent readers share one fetch (RS-29).
    let pending = fetches.get(id);
    if (!pending) {
      pending = fetchAndStore(id, metadata).finally(() => fetches.delete(id));
      fetches.set(id, pending);
    }
    return pending;
  }

  return {
    root,
    async registerAsset(src, declared = {}) {
      const id = sha256(src).slice(0, 32);
      const paths = assetPaths(id);
      if (!(await readIfExists(paths.sidecar))) {
        const metadata: ResourceMetadata = { id, kind: "asset", ...declared, createdAt: new Date().toISOString(), src };
        await writeAtomic(paths.sidecar, JSON.stringify(metadata, null, 2));
      }
      return `asset://${id}`;
    },
    async readAsset(id, readOptions) {
      const signal = readOptions?.signal;
      if (!signal) return readAsset(id);
      signal.throwIfAborted();
      // A reader may stop waiting; the shared fetch goes on for the others.
      return new Promise((resolve, reject) => {
        const abort = () => reject(signal.reason);
        signal.addEventListener("abort", abort, { once: true });
        readAsset(id)
          .then(resolve, reject)
          .finally(() => signal.removeEventListener("abort", abort));
      });
    },
    async writeArtifact(tool, content, declared, view) {
      const namespace = artifactNamespace(tool);
      const dir = join(root, "artifacts", namespace);
      // The name is the content's hash, known only once written: stage first, then commit or discard.
      const blob = await stageFile(dir, content);
      const staged = view === undefined ? undefined : await stageFile(dir, view).catch(async (error) => {
        await blob.discard();
        throw error;
      });
      const name = `${blob.hash}-${sha256(declared.mediaType).slice(0, 8)}${staged === undefined ? "" : `-${staged.hash.slice(0, 16)}`}`;
      const paths = artifactPaths(namespace, name);
      if (await readIfExists(paths.sidecar)) {
        await Promise.all([blob.discard(), staged?.discard()]);
      } else {
        try {
          await blob.commit(paths.bytes);
          if (staged) await staged.commit(paths.view);
        } finally {
          await staged?.discard();
        }
        const metadata: ResourceMetadata = {
          id: name,
          kind: "artifact",
          namespace,
          name,
          ...declared,
          byteLength: blob.byteLength,
          contentHash: blob.hash,
          createdAt: new Date().toISOString(),
        };
        if (staged) metadata.viewName = declared.viewName ?? "text";
        // The sidecar is written last: an artifact exists once its sidecar does.
        await writeAtomic(paths.sidecar, JSON.stringify(metadata, null, 2));
      }
      return `artifact://${namespace}/${name}`;
    },
    async readArtifact(namespace, name, part = "blob") {
      const paths = artifactPaths(namespace, name);
      const bytes = await cachedFile(part === "view" ? paths.view : paths.bytes);
      if (!bytes) throw new ResourceError("resource_not_found", `artifact://${namespace}/${name}: no such artifact in this runtime`);
      return bytes;
    },
    async metadata(kind: "asset" | "artifact", first: string, name?: string) {
      return sidecar(kind === "asset" ? assetPaths(first).sidecar : artifactPaths(first, name ?? "").sidecar);
    },
    async list(kind, namespace) {
      const dir = kind === "asset" ? join(root, "assets") : namespace === undefined ? join(root, "artifacts") : join(root, "artifacts", namespace);
      const names = await readdir(dir).catch(() => [] as string[]);
      if (kind === "artifact" && namespace === undefined) {
        const dirs = await Promise.all(names.map(async (n) => ((await stat(join(dir, n)).catch(() => undefined))?.isDirectory() ? n : undefined)));
        return dirs.filter((n): n is string => n !== undefined).sort();
      }
      return names.filter((n) => n.endsWith(".json")).map((n) => n.slice(0, -5)).sort();
    },
    paths(kind: "asset" | "artifact", first: string, name?: string) {
      return kind === "asset" ? assetPaths(first) : artifactPaths(first, name ?? "");
    },
    dispose() {
      cache.dropOwner(owner);
    },
  } as ResourceStore;
}
