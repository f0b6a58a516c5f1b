import { Worker } from "node:worker_threads";

// Large artifacts are hashed and written on a worker thread while the host keeps encoding: for a 50 MB result the
// SHA-256 and the write syscalls would otherwise add tens of milliseconds to the model's wait on the host's thread.
// The host encodes into shared buffers and hands each over with its length; the worker acknowledges a buffer once
// it is hashed and on disk, and only then does the host fill it again.

type ToWorker =
  | { job: number; kind: "open"; path: string }
  | { job: number; kind: "chunk"; buffer: SharedArrayBuffer; length: number }
  | { job: number; kind: "close" }
  | { job: number; kind: "abort" };

type FromWorker =
  | { job: number; kind: "opened" }
  | { job: number; kind: "ack" }
  | { job: number; kind: "closed"; hash: string; byteLength: number }
  | { job: number; kind: "aborted" }
  | { job: number; kind: "error"; message: string };

/** The worker's whole program. Its source text is the worker, so it must not close over anything. */
function stageWorkerMain(load: NodeJS.Require): void {
  const { parentPort } = load("node:worker_threads") as typeof import("node:worker_threads");
  const { createHash } = load("node:crypto") as typeof import("node:crypto");
  const fs = load("node:fs") as typeof import("node:fs");
  const jobs = new Map<number, { fd: number; hash: ReturnType<typeof createHash>; byteLength: number }>();
  const post = (message: FromWorker) => parentPort!.postMessage(message);
  parentPort!.on("message", (message: ToWorker) => {
    const state = jobs.get(message.job);
    try {
      if (message.kind === "open") {
        jobs.set(message.job, { fd: fs.openSync(message.path, "w"), hash: createHash("sha256"), byteLength: 0 });
        post({ job: message.job, kind: "opened" });
      } else if (state === undefined) throw new Error(`no staging job ${message.job}`);
      else if (message.kind === "chunk") {
        const bytes = new Uint8Array(message.buffer, 0, message.length);
        state.hash.update(bytes);
        state.byteLength += bytes.length;
        for (let offset = 0; offset < bytes.length; ) offset += fs.writeSync(state.fd, bytes, offset);
        post({ job: message.job, kind: "ack" });
      } else {
        jobs.delete(message.job);
        fs.closeSync(state.fd);
        if (message.kind === "close") post({ job: message.job, kind: "closed", hash: state.hash.digest("hex"), byteLength: state.byteLength });
        else post({ job: message.job, kind: "aborted" });
      }
    } catch (error) {
      if (state !== undefined) {
        jobs.delete(message.job);
        try {
          fs.closeSync(state.fd);
        } catch {
          // Already closed or never opened: nothing is left to release.
        }
      }
      post({ job: message.job, kind: "error", message: error instanceof Error ? error.message : String(error) });
    }
  });
}

/** One file being staged on the worker; every call resolves once the worker has done it. */
export interface StageJob {
  /** Hashes and writes `length` bytes of `buffer`; the buffer may be refilled once this resolves. */
  chunk(buffer: SharedArrayBuffer, length: number): Promise<void>;
  close(): Promise<{ hash: string; byteLength: number }>;
  abort(): Promise<void>;
}

class StageWorker {
  private readonly thread: Worker;
  private readonly waiting = new Map<number, Array<{ resolve(message: FromWorker): void; reject(error: Error): void }>>();
  private next = 0;
  public failed = false;

  public constructor() {
    this.thread = new Worker(`(${stageWorkerMain.toString()})(require);`, { eval: true });
    this.thread.on("message", (message: FromWorker) => {
      const queue = this.waiting.get(message.job);
      const waiter = queue?.shift();
      if (message.kind === "error") waiter?.reject(new Error(`artifact staging: ${message.message}`));
      else waiter?.resolve(message);
    });
    this.thread.on("error", (error) => this.fail(error));
    this.thread.on("exit", (code) => this.fail(new Error(`artifact staging: worker exited with code ${code}`)));
    // Idle, the worker never keeps the process alive; while a job waits on it, it must (see `open`). Unref'd after
    // the listeners: adding a "message" listener refs the port again.
    this.thread.unref();
  }

  public async open(path: string): Promise<StageJob> {
    const job = this.next++;
    this.waiting.set(job, []);
    if (this.waiting.size === 1) this.thread.ref();
    const request = (message: ToWorker): Promise<FromWorker> =>
      new Promise((resolve, reject) => {
        if (this.failed) return reject(new Error("artifact staging: the worker is gone"));
        this.waiting.get(job)!.push({ resolve, reject });
        this.thread.postMessage(message);
      });
    const done = () => {
      this.waiting.delete(job);
      if (this.waiting.size === 0) this.thread.unref();
    };
    await request({ job, kind: "open", path }).catch((error: unknown) => {
      done();
      throw error;
    });
    return {
      chunk: async (buffer, length) => {
        await request({ job, kind: "chunk", buffer, length });
      },
      close: async () => {
        const reply = await request({ job, kind: "close" }).finally(done);
        if (reply.kind !== "closed") throw new Error("artifact staging: unexpected reply");
        return { hash: reply.hash, byteLength: reply.byteLength };
      },
      abort: async () => {
        await request({ job, kind: "abort" })
          .catch(() => undefined)
          .finally(done);
      },
    };
  }

  private fail(error: Error): void {
    this.failed = true;
    for (const queue of this.waiting.values()) for (const waiter of queue.splice(0)) waiter.reject(error);
  }
}

let worker: StageWorker | undefined;

/** Starts staging `path` on the process's staging worker, created on first use and again after a crash. */
export function openStageJob(path: string): Promise<StageJob> {
  if (worker === undefined || worker.failed) worker = new StageWorker();
  return worker.open(path);
}
