import type * as QuickJS from "quickjs-emscripten";
import type { Crossing } from "./protocol.js";

/**
 * Values moving between the worker and a program's QuickJS context (`api` is the context's prelude API,
 * guest-prelude.ts). Long strings are copied much faster than by the library.
 */
export interface GuestValues {
  toGuest(context: QuickJS.QuickJSContext, text: string): QuickJS.QuickJSHandle;
  /** A guest string, exact: one whose fast copy stopped at a NUL (or met a lone surrogate) is re-read as JSON. */
  read(context: QuickJS.QuickJSContext, api: QuickJS.QuickJSHandle, handle: QuickJS.QuickJSHandle): string;
  /** What the prelude's `encode` produced: its JSON text, or an `Outbound` box when strings went aside. */
  readOutbound(context: QuickJS.QuickJSContext, api: QuickJS.QuickJSHandle, value: QuickJS.QuickJSHandle): Crossing;
  /** A tool output as a guest value: the prelude parses the text and puts the side strings back. */
  decode(context: QuickJS.QuickJSContext, api: QuickJS.QuickJSHandle, crossing: Crossing): ReturnType<QuickJS.QuickJSContext["callFunction"]>;
}

/**
 * quickjs-emscripten copies strings with emscripten's character-by-character loops, which made moving a 1 MiB
 * string cost ~10 ms into the guest and ~3 ms out of it (issue 19). Long strings are copied with
 * TextEncoder/TextDecoder over the module's memory instead, calling the same QuickJS entry points the library
 * does (`QTS_NewString`, `QTS_GetString`, `QTS_FreeCString`) through its internals, which quickjs-emscripten
 * 0.32.0 (pinned) has; the codemode tests fail if an upgrade moves them.
 *
 * Like workerMain, this runs in the worker from its source text, so it references nothing outside itself.
 */
export function guestValues(): GuestValues {
  interface Internals {
    readonly ffi: {
      QTS_NewString(context: number, text: number): number;
      QTS_GetString(context: number, value: number): number;
      QTS_FreeCString(context: number, text: number): void;
    };
    readonly ctx: { readonly value: number };
    readonly memory: {
      readonly module: { readonly HEAPU8: Uint8Array; _malloc(bytes: number): number; _free(pointer: number): void };
      heapValueHandle(pointer: number): QuickJS.QuickJSHandle;
    };
  }
  /** Below this, the library's own copy costs no more. */
  const FAST_UNITS = 1024;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();

  function toGuest(context: QuickJS.QuickJSContext, text: string): QuickJS.QuickJSHandle {
    if (text.length < FAST_UNITS) return context.newString(text);
    const inner = context as unknown as Internals;
    const heap = inner.memory.module;
    const bytes = Buffer.byteLength(text);
    const pointer = heap._malloc(bytes + 1);
    if (pointer === 0) throw new Error("out of memory copying a string into the sandbox");
    try {
      encoder.encodeInto(text, heap.HEAPU8.subarray(pointer, pointer + bytes));
      heap.HEAPU8[pointer + bytes] = 0;
      return inner.memory.heapValueHandle(inner.ffi.QTS_NewString(inner.ctx.value, pointer));
    } finally {
      heap._free(pointer);
    }
  }

  function toHost(context: QuickJS.QuickJSContext, handle: QuickJS.QuickJSHandle): string {
    const inner = context as unknown as Internals;
    const pointer = inner.ffi.QTS_GetString(inner.ctx.value, (handle as unknown as { value: number }).value);
    try {
      const heap = inner.memory.module.HEAPU8;
      return decoder.decode(heap.subarray(pointer, heap.indexOf(0, pointer)));
    } finally {
      inner.ffi.QTS_FreeCString(inner.ctx.value, pointer);
    }
  }

  function read(context: QuickJS.QuickJSContext, api: QuickJS.QuickJSHandle, handle: QuickJS.QuickJSHandle): string {
    if (context.typeof(handle) !== "string") throw new Error("sandbox value is not a string");
    const length = context.getProp(handle, "length");
    const units = context.getNumber(length);
    length.dispose();
    const text = toHost(context, handle);
    if (text.length === units) return text;
    const quote = context.getProp(api, "quote");
    const quoted = context.callFunction(quote, context.undefined, handle);
    quote.dispose();
    const json = context.unwrapResult(quoted);
    try {
      return JSON.parse(read(context, api, json)) as string;
    } finally {
      json.dispose();
    }
  }

  return {
    toGuest,
    read,
    readOutbound(context, api, value) {
      // JSON text holds no raw NUL, so it needs no length check.
      if (context.typeof(value) === "string") return { json: toHost(context, value), strings: [] };
      const text = context.getProp(value, "json");
      const json = toHost(context, text);
      text.dispose();
      const length = context.getProp(value, "count");
      const count = context.getNumber(length);
      length.dispose();
      const strings: string[] = [];
      for (let i = 0; i < count; i++) {
        const item = context.getProp(value, i);
        try {
          strings.push(read(context, api, item));
        } finally {
          item.dispose();
        }
      }
      return { json, strings };
    },
    decode(context, api, crossing) {
      const decode = context.getProp(api, "decode");
      const handles = [toGuest(context, crossing.json)];
      try {
        for (const text of crossing.strings) handles.push(toGuest(context, text));
        return context.callFunction(decode, context.undefined, ...handles);
      } finally {
        decode.dispose();
        for (const handle of handles) handle.dispose();
      }
    },
  };
}
