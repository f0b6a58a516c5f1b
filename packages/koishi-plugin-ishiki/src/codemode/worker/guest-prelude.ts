/* Guest-side code. These functions run inside QuickJS, not in Node: they are sent as source text
 * (`fn.toString()`), so each must reference nothing outside its own body and use only ECMAScript built-ins.
 * The prelude is compiled for every program, so it stays small; the path finder is compiled only when a value
 * turns out not to be JSON. */

type HostCall = (name: string, json: string | undefined, input: unknown) => Promise<string>;
type HostLog = (level: string, text: string) => void;

/**
 * Guest helpers of one program's context, created before the program is known (`bind` later gives it `tools`
 * and `console`); the built-ins it needs are captured before the program can replace them. `encode` is JSON.stringify by the rules of spec 04 EX-7 (BigInt → string, non-finite → null,
 * `undefined` properties dropped); it returns undefined when the value holds a function, a symbol or a cycle.
 */
export function guestPrelude(call: HostCall, log: HostLog) {
  "use strict";
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const freeze = Object.freeze;
  const ErrorClass = Error;
  const marked = new WeakSet<object>();
  const replacer = (_key: string, value: unknown) => {
    const type = typeof value;
    if (type === "bigint") return String(value);
    if (type === "function" || type === "symbol") throw replacer;
    return value;
  };
  const encode = (value: unknown): string | undefined => {
    try {
      return stringify(value, replacer);
    } catch {
      return undefined;
    }
  };
  // A host rejection becomes an Error the program can catch; uncaught, its message is shown verbatim.
  const fromHost = (message: string) => {
    const error = new ErrorClass(message);
    marked.add(error);
    throw error;
  };
  const tool = (name: string) => (input?: unknown) =>
    call(name, input === undefined ? "{}" : encode(input), input).then(parse, fromHost);
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
        : (encode(value) ?? String(value));
  const logger = (level: string) => (...values: unknown[]) => log(level, values.map(text).join(" "));
  const console = freeze({
    log: logger("log"),
    info: logger("info"),
    warn: logger("warn"),
    error: logger("error"),
    debug: logger("debug"),
  });
  return freeze({ bind, encode, isFromHost: (value: unknown) => marked.has(value as object) });
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
