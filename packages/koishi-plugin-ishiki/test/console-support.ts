// A console connection as the browser's: the console's WebSocket protocol (`{ id, type, args }` → `response`),
// for tests of the Ishiki page's data API.
import WebSocket from "ws";

export interface ConsoleConnection {
  /** Calls a console listener; resolves with its value or rejects with the console's error (`unauthorized`). */
  call<T = unknown>(type: string, ...args: unknown[]): Promise<T>;
  /** The latest `data` push of `key`, when one arrived (`null` is what a lower authority gets). */
  data: Map<string, unknown>;
  close(): void;
}

export async function connectConsole(port: number): Promise<ConsoleConnection> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/status`);
  const data = new Map<string, unknown>();
  const pending = new Map<string, { resolve(value: unknown): void; reject(error: Error): void }>();
  let next = 0;
  socket.on("message", (raw) => {
    const message = JSON.parse(raw.toString()) as { type: string; body: { id?: string; key?: string; value?: unknown; error?: unknown } };
    if (message.type === "data") data.set(message.body.key!, message.body.value);
    if (message.type !== "response") return;
    const hook = pending.get(message.body.id!);
    if (!hook) return;
    pending.delete(message.body.id!);
    if (message.body.error) hook.reject(new Error(typeof message.body.error === "string" ? message.body.error : JSON.stringify(message.body.error)));
    else hook.resolve(message.body.value);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  socket.on("error", () => {});
  return {
    data,
    call: <T>(type: string, ...args: unknown[]) =>
      new Promise<T>((resolve, reject) => {
        const id = String(++next);
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
        socket.send(JSON.stringify({ id, type, args }));
      }),
    close: () => socket.terminate(),
  };
}
