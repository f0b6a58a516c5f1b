/* Guest-side code. These functions run inside QuickJS, not in Node: they are sent as source text
 * (`fn.toString()`), so each must reference nothing outside its own body and use only ECMAScript built-ins.
 * The prelude is compiled for every program, so it stays small; the path finder is compiled only when a value
 * turns out not to be JSON. */

/**
 * A JSON value as the guest hands it out: `json` with long strings replaced by markers (`"\ue000<index>"`),
 * the strings under their indices, and `count`. A null-prototype object, so no setter a program installed on
 * `Object.prototype` or `Array.prototype` sees the strings being collected.
 */
interface Outbound {
  json: string;
  count: number;
  [index: number]: string;
}

type HostCall = (name: string, value: Outbound | string | undefined, input: unknown) => Promise<unknown>;
type HostLog = (level: string, text: string) => void;

/**
 * Guest helpers of one program's context, created before the program is known (`bind` later gives it `tools`
 * and `console`); the built-ins it needs are captured before the program can replace them.
 *
 * `encode` is JSON.stringify by the rules of spec 04 EX-7 (BigInt → string, non-finite → null, `undefined`
 * properties dropped); it returns undefined when the value holds a function, a symbol or a cycle. Strings of
 * `sideUnits` or more, and every string starting with the marker's character, cross beside the text (see
 * protocol.ts `Crossing`); `decode` puts the host's side strings back.
 */
export function guestPrelude(call: HostCall, log: HostLog, sideUnits: number) {
  "use strict";
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const freeze = Object.freeze;
  const create = Object.create;
  const keys = Object.keys;
  const isArray = Array.isArray;
  const apply = Reflect.apply;
  const isWellFormed = (String.prototype as unknown as { isWellFormed: () => boolean }).isWellFormed;
  const ErrorClass = Error;
  const marked = new WeakSet<object>();
  let side: Outbound | undefined;
  /** JSON text of a value for console lines and thrown values, or undefined where it is not JSON. */
  const plain = (_key: string, value: unknown) => {
    const type = typeof value;
    if (type === "bigint") return String(value);
    if (type === "function" || type === "symbol") throw plain;
    return value;
  };
  const plainText = (value: unknown): string | undefined => {
    try {
      return stringify(value, plain);
    } catch {
      return undefined;
    }
  };
  const replacer = (_key: string, value: unknown) => {
    const type = typeof value;
    if (type === "string") {
      const text = value as string;
      // Lone surrogates stay in the text, where JSON escapes keep them exact. (A string with NULs is found by
      // the worker, whose copy would end at the first one; a scan for them here would cost more than the copy.)
      if ((text.length >= sideUnits || text[0] === "\ue000") && apply(isWellFormed, text, [])) {
        const box = side as Outbound;
        const index = box.count;
        box[index] = text;
        box.count = index + 1;
        return "\ue000" + index;
      }
      return text;
    }
    return plain(_key, value);
  };
  /** The JSON text alone when no string went aside (the common case), else the Outbound box. */
  const encode = (value: unknown): Outbound | string | undefined => {
    // A toJSON may encode a tool input of its own while this value is being encoded.
    const outer = side;
    const box = create(null) as Outbound;
    box.count = 0;
    side = box;
    try {
      const json = stringify(value, replacer);
      if (json === undefined) return undefined;
      if (box.count === 0) return json;
      box.json = json;
      return box;
    } catch {
      return undefined;
    } finally {
      side = outer;
    }
  };
  const restore = (value: unknown, strings: string[]): unknown => {
    if (typeof value === "string") {
      if (value[0] !== "\ue000") return value;
      const found = strings[+value.slice(1)];
      return typeof found === "string" ? found : value;
    }
    if (value === null || typeof value !== "object") return value;
    const record = value as Record<string, unknown>;
    if (isArray(value)) for (let i = 0; i < value.length; i++) record[i] = restore(record[i], strings);
    else for (const key of keys(value)) if (key !== "__proto__") record[key] = restore(record[key], strings);
    return value;
  };
  /** A tool output from the host: its JSON text and side strings (already bounded in depth by the host). */
  const decode = (json: string, ...strings: string[]) => {
    const value: unknown = parse(json);
    return strings.length === 0 ? value : restore(value, strings);
  };
  // A host rejection becomes an Error the program can catch; uncaught, its message is shown verbatim.
  const fromHost = (message: string) => {
    const error = new ErrorClass(message);
    marked.add(error);
    throw error;
  };
  const tool = (name: string) => (input?: unknown) => call(name, encode(input === undefined ? {} : input), input).then(undefined, fromHost);
  /** The program's `tools`: the callable names, and a Proxy that still sends unknown names to the host (CT-29). */
  const bind = (namesJson: string) => {
    const known: Record<string, (input?: unknown) => Promise<unknown>> = Object.create(null);
    for (const name of parse(namesJson) as string[]) known[name] = tool(name);
    freeze(known);
    const tools = new Proxy(known, {
      get: (target, key) => (typeof key !== "string" || key in target || key === "then" ? target[key as string] : tool(key)),
    });
    return freeze({ tools, console });
  };
  const text = (value: unknown) =>
    typeof value === "string" || typeof value === "bigint"
      ? String(value)
      : value instanceof ErrorClass
        ? `${value.name}: ${value.message}`
        : (plainText(value) ?? String(value));
  const logger = (level: string) => (...values: unknown[]) => log(level, values.map(text).join(" "));
  const console = freeze({
    log: logger("log"),
    info: logger("info"),
    warn: logger("warn"),
    error: logger("error"),
    debug: logger("debug"),
  });
  /**
   * What the host reports for a thrown value, as plain strings: `[name, message, stack, "host" | undefined]`
   * for an Error-like value (the last marks a host tool error), `[undefined, text]` otherwise. Reading it runs guest code (getters, toJSON); a throw there is
   * reported as such rather than escaping.
   */
  const describe = (value: unknown): (string | undefined)[] => {
    try {
      if (value !== null && typeof value === "object") {
        const error = value as { name?: unknown; message?: unknown; stack?: unknown };
        const name = error.name;
        const message = error.message;
        if (typeof name === "string" && typeof message === "string") {
          const stack = error.stack;
          return [name, message, typeof stack === "string" ? stack : "", marked.has(error) ? "host" : undefined];
        }
      }
      if (typeof value === "string") return [undefined, value];
      if (value === undefined) return [undefined, "undefined"];
      return [undefined, plainText(value) ?? String(value)];
    } catch {
      return [undefined, "a value that cannot be shown"];
    }
  };
  return freeze({ bind, encode, decode, describe, quote: (value: string) => stringify(value) });
}

/** Where `value` stops being JSON: the path of the first function, symbol or cycle, e.g. `$.items[2].run`. */
export function guestPathFinder(value: unknown): string | undefined {
  "use strict";
  const quote = JSON.stringify;
  const identifier = /^[A-Za-z_$][\w$]*$/;
  const open = new Set<object>();
  const visit = (current: unknown, key: string, path: string): string | undefined => {
    if (current !== null && (typeof current === "object" || typeof current === "function")) {
      const toJSON = (current as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === "function") current = toJSON.call(current, key);
    }
    if (typeof current === "function" || typeof current === "symbol") return path;
    if (current === null || typeof current !== "object") return undefined;
    if (open.has(current)) return path;
    open.add(current);
    const keys = Array.isArray(current) ? current.map((_item, index) => String(index)) : Object.keys(current);
    for (const name of keys) {
      const child = Array.isArray(current)
        ? `${path}[${name}]`
        : identifier.test(name)
          ? `${path}.${name}`
          : `${path}[${quote(name)}]`;
      const found = visit((current as Record<string, unknown>)[name], name, child);
      if (found !== undefined) return found;
    }
    open.delete(current);
    return undefined;
  };
  return visit(value, "", "$");
}
