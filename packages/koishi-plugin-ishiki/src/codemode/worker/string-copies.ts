import type * as QuickJS from "quickjs-emscripten";

/** Copies of strings between the worker and a QuickJS context, for long strings much faster than the library's. */
export interface StringCopies {
  toGuest(context: QuickJS.QuickJSContext, text: string): QuickJS.QuickJSHandle;
  /** The guest string up to its first NUL: the caller compares lengths and re-reads such a string another way. */
  toHost(context: QuickJS.QuickJSContext, handle: QuickJS.QuickJSHandle): string;
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
export function stringCopies(): StringCopies {
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

  return {
    toGuest(context, text) {
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
    },
    toHost(context, handle) {
      const inner = context as unknown as Internals;
      const pointer = inner.ffi.QTS_GetString(inner.ctx.value, (handle as unknown as { value: number }).value);
      try {
        const heap = inner.memory.module.HEAPU8;
        return decoder.decode(heap.subarray(pointer, heap.indexOf(0, pointer)));
      } finally {
        inner.ffi.QTS_FreeCString(inner.ctx.value, pointer);
      }
    },
  };
}
