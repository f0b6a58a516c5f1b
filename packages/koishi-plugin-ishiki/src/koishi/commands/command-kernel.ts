import type { Gateway } from "@yesimagent/gateway";
import type { ProfileActivation } from "../profile-activation.js";

/** What the owner's commands read of the kernel service; the service satisfies it structurally. */
export interface CommandKernel {
  readonly gateway: Gateway;
  /** Every loaded profile, in id order. */
  profiles(): ProfileActivation[];
}

/** Where the commands are allowed (issue 22): Koishi authority, admins (3) by default. */
export interface CommandSettings {
  authority: number;
}
