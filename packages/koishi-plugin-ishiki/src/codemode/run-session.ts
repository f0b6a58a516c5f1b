import { codemodeErrors, withConsoleOutput } from "./error-text.js";
import { decodeJson, encodeJson, JsonDepthError } from "./json-crossing.js";
import type { CodemodeLimits } from "./limits.js";
import type { CodemodeCallableTool, CodemodeOutcome, CodemodeRunRequest } from "./sandbox.js";
import type { SandboxWorker } from "./sandbox-worker.js";
import { CROSSING_DEPTH, type Crossing, type RunEnd, type WorkerMessage } from "./worker/protocol.js";

/** Grace after the deadline (or an abort) before the worker is terminated and replaced (CT-13). */
export const BACKSTOP_GRACE_MS = 1000;

/** Why the host stopped a program before it ended by itself. */
type StopCause = { readonly kind: "deadline" } | { readonly kind: "fatal"; readonly error: string } | { readonly kind: "abort" };

export interface SessionOptions {
  readonly runId: number;
  readonly code: string;
  /** Generated line → the model's line (see compile.ts). */
  readonly lines: Int32Array;
  readonly limits: CodemodeLimits;
  readonly request: CodemodeRunRequest;
  /** Called once when the worker is free again: `reusable` false means terminate and replace it. */
  readonly release: (reusable: boolean) => void;
}

/**
 * The host side of one program on one worker: it owns every policy decision (call count, sizes, approval,
 * catalog, deadline, abort, backstop) and turns the worker's report into the model's outcome.
 */
export function runSession(worker: SandboxWorker, options: SessionOptions): Promise<CodemodeOutcome> {
  const { limits, request, runId } = options;
  const tools = new Map<string, CodemodeCallableTool>(request.tools.map((tool) => [tool.name, tool]));
  const calls = new AbortController();
  let cause: StopCause | undefined;
  let callCount = 0;
  let released = false;

  return new Promise<CodemodeOutcome>((resolve, reject) => {
    const deadline = setTimeout(() => stop({ kind: "deadline" }), limits.timeoutMs);
    let backstop = setTimeout(() => kill(), limits.timeoutMs + BACKSTOP_GRACE_MS);
    const onAbort = () => {
      stop({ kind: "abort" });
      reject(request.signal?.reason);
      clearTimeout(backstop);
      backstop = setTimeout(() => kill(), BACKSTOP_GRACE_MS);
    };
    request.signal?.addEventListener("abort", onAbort, { once: true });

    function stop(next: StopCause): void {
      if (cause || released) return;
      cause = next;
      worker.requestStop();
      worker.send({ type: "stop", runId });
      calls.abort(new Error(next.kind === "fatal" ? next.error : codemodeErrors.timedOut(limits.timeoutMs)));
    }

    function end(reusable: boolean): void {
      if (released) return;
      released = true;
      clearTimeout(deadline);
      clearTimeout(backstop);
      request.signal?.removeEventListener("abort", onAbort);
      if (!calls.signal.aborted) calls.abort(new Error("codemode: program ended"));
      options.release(reusable);
    }

    function fail(error: string, console: readonly string[] = []): void {
      resolve({ ok: false, error: withConsoleOutput(error, console), console });
    }

    /** The guest did not stop within the grace: its console is lost with the thread. */
    function kill(): void {
      end(false);
      fail(stoppedError());
    }

    function stoppedError(): string {
      return cause?.kind === "fatal" ? cause.error : codemodeErrors.timedOut(limits.timeoutMs);
    }

    worker.listener = {
      message(message: WorkerMessage) {
        if (message.type === "call" && message.runId === runId) onCall(message.callId, message.name, message);
        else if (message.type === "done" && message.runId === runId) {
          end(!message.broken && !message.retire);
          report(message.end, message.console);
        }
      },
      exited(reason: string) {
        end(false);
        fail(cause ? stoppedError() : codemodeErrors.crashed(reason));
      },
    };

    worker.clearStop();
    worker.send({
      type: "run",
      runId,
      code: options.code,
      toolNames: [...tools.keys()],
      timeoutMs: limits.timeoutMs,
      maxConsoleBytes: limits.maxConsoleBytes,
      memoryLimitBytes: limits.memoryLimitBytes,
      maxStackBytes: limits.maxStackBytes,
    });
    // An abort that landed while the program waited for a worker fires no event any more.
    if (request.signal?.aborted) onAbort();

    function report(outcome: RunEnd, console: string[]): void {
      if (cause?.kind === "fatal") return fail(cause.error, console);
      switch (outcome.kind) {
        case "returned": {
          const decoded = decodeGuest(outcome, "result");
          if (!decoded.ok) return fail(decoded.error, console);
          const { value, bytes } = decoded;
          if (bytes > limits.maxResultBytes) {
            return fail(codemodeErrors.tooLarge("result", "maxResultBytes", bytes, limits.maxResultBytes), console);
          }
          return resolve({ ok: true, value, console });
        }
        case "thrown": {
          if (outcome.fromHost) return fail(outcome.message, console);
          const line = outcome.line === undefined ? 0 : (options.lines[outcome.line] ?? 0);
          return fail(codemodeErrors.thrown(outcome.name, outcome.message, line > 0 ? line : undefined), console);
        }
        case "interrupted":
          return fail(stoppedError(), console);
        case "out-of-memory":
          return fail(codemodeErrors.memory(limits.memoryLimitBytes), console);
        case "stack-overflow":
          return fail(codemodeErrors.stackOverflow(), console);
        case "never-settles":
          return fail(codemodeErrors.neverSettles(), console);
        case "pending-calls":
          return fail(codemodeErrors.pendingCalls(outcome.count), console);
        case "not-json":
          return fail(codemodeErrors.notJson(outcome.path), console);
        case "crashed":
          return fail(codemodeErrors.crashed(outcome.reason), console);
      }
    }

    function settle(callId: number, result: ({ ok: true } & Crossing) | { ok: false; message: string }): void {
      if (!released) worker.send({ type: "settle", runId, callId, ...result });
    }

    /** Guest data decoded where a failure is this program's error result, never an exception in the host. */
    function decodeGuest(crossing: Crossing, what: "tool input" | "result") {
      try {
        return { ok: true as const, ...decodeJson(crossing) };
      } catch (error) {
        return { ok: false as const, error: crossingError(what, error) };
      }
    }

    function onCall(callId: number, name: string, crossing: Crossing): void {
      if (cause) return settle(callId, { ok: false, message: stoppedError() });
      callCount += 1;
      if (callCount > limits.maxToolCalls) return stop({ kind: "fatal", error: codemodeErrors.tooManyCalls(limits.maxToolCalls) });
      const tool = tools.get(name);
      if (!tool) {
        const message = request.describeUnknownTool?.(name) ?? codemodeErrors.unknownTool(name);
        return settle(callId, { ok: false, message });
      }
      if (tool.needsApproval) return settle(callId, { ok: false, message: codemodeErrors.needsApproval(name) });
      const input = decodeGuest(crossing, "tool input");
      if (!input.ok) return stop({ kind: "fatal", error: input.error });
      if (input.bytes > limits.maxToolInputBytes) {
        const error = codemodeErrors.tooLarge("tool input", "maxToolInputBytes", input.bytes, limits.maxToolInputBytes);
        return stop({ kind: "fatal", error });
      }
      const signal = calls.signal;
      Promise.resolve()
        .then(() => request.callTool(name, input.value, signal))
        .then(
          (output) => {
            if (signal.aborted) return;
            let encoded;
            try {
              encoded = encodeJson(output);
            } catch (error) {
              const message = error instanceof JsonDepthError ? `output nests deeper than ${CROSSING_DEPTH} levels` : messageOf(error);
              return settle(callId, { ok: false, message: codemodeErrors.toolFailed(name, message) });
            }
            if (encoded.bytes > limits.maxToolOutputBytes) {
              const error = codemodeErrors.tooLarge("tool output", "maxToolOutputBytes", encoded.bytes, limits.maxToolOutputBytes);
              return stop({ kind: "fatal", error });
            }
            settle(callId, { ok: true, json: encoded.json, strings: encoded.strings });
          },
          (error: unknown) => {
            if (!signal.aborted) settle(callId, { ok: false, message: codemodeErrors.toolFailed(name, messageOf(error)) });
          },
        );
    }
  });
}

function crossingError(what: "tool input" | "result", error: unknown): string {
  return error instanceof JsonDepthError ? codemodeErrors.tooDeep(what, CROSSING_DEPTH) : codemodeErrors.crashed(`${what} could not be read: ${messageOf(error)}`);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
