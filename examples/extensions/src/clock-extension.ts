import { Service } from "koishi";
import type { Context } from "koishi";
import { Extension } from "koishi-plugin-ishiki";
import type { ExtensionHost, ExtensionInstance } from "koishi-plugin-ishiki";
import { ClockHandler } from "./clock.js";

/** Registers `clock://` in every runtime of the profiles that enable `extends.clock`. */
export class ClockExtension extends Extension {
  public constructor(ctx: Context) {
    super(ctx, "clock");
  }

  public [Service.invoke](host: ExtensionHost): ExtensionInstance {
    const detach = host.resources.attach(new ClockHandler());
    return { stop: detach };
  }
}

export default ClockExtension;
