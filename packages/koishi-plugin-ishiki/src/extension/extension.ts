import { Service } from "koishi";
import type { Awaitable, Context, Schema } from "koishi";
import type { ExtensionHost } from "./extension-host.js";
import { registerExtendsForm } from "./extends-form.js";
import type { ExtensionInstance } from "../extension.js";

const EXTENSION_NAME = /^[a-z][a-z0-9-]*$/;

/**
 * Base class of every extension (spec 07 XA-1 .. XA-5): a Koishi service named `ishiki.ext.<name>` that a
 * profile enables with `extends.<name>`. The kernel validates `extends.<name>.config` with `Schema` (when set)
 * once at activation, then calls `[Service.invoke](host, config)` once per runtime at its creation.
 */
export abstract class Extension<C = unknown> extends Service {
  /** Validates the profile's `extends.<name>.config`; without it the config is passed as is. */
  public readonly Schema?: Schema<C>;
  /** The extension's name, without the `ishiki.ext.` prefix. */
  public readonly extensionName: string;

  /** The service name of extension `name`. */
  public static serviceName(name: string): string {
    return `ishiki.ext.${name}`;
  }

  public constructor(ctx: Context, name: string) {
    if (!EXTENSION_NAME.test(name)) throw new Error(`extension "${name}": invalid name; use [a-z][a-z0-9-]*`);
    super(ctx, Extension.serviceName(name));
    this.extensionName = name;
    this.logger = ctx.logger(Extension.serviceName(name));
    // The subclass sets `Schema` after this constructor returns; Koishi's own services wait a tick the same way.
    ctx.on("ready", async () => {
      await Promise.resolve();
      registerExtendsForm(ctx, name, this.Schema);
    });
  }

  /** Runs once per runtime; `undefined` contributes nothing, a throw fails the runtime's creation. */
  public abstract [Service.invoke](host: ExtensionHost, config: C): Awaitable<ExtensionInstance | undefined>;
}
