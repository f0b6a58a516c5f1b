import { randomInt } from "node:crypto";
import type { PendingApproval } from "./pending-approval.js";

/** Letters and digits that cannot be mistaken for one another (no 0/O, 1/I/L). */
const ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/**
 * The service-wide register of pending approvals (OB-15), so `ishiki.approve <id>` finds a request whatever
 * runtime opened it. Entries expire on their timer or on their runtime's stop, and never outlive the process.
 */
export class ApprovalDesk {
  private readonly pending = new Map<string, { approval: PendingApproval; timer: NodeJS.Timeout }>();

  /** Registers a request under a fresh 4-character id; it expires (and wakes its runtime) at `expiresAt`. */
  public open(request: Omit<PendingApproval, "id">): PendingApproval {
    let id: string;
    do id = Array.from({ length: 4 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
    while (this.pending.has(id));
    const approval = { ...request, id };
    const timer = setTimeout(() => this.expire(id), Math.max(0, request.expiresAt - Date.now()));
    timer.unref?.();
    this.pending.set(id, { approval, timer });
    return approval;
  }

  /** Grants or denies `id` on behalf of `approver` (`<platform>:<userId>`); returns the reply for the approver. */
  public async decide(rawId: string | undefined, approver: string, grant: boolean): Promise<string> {
    const id = (rawId ?? "").trim().toUpperCase();
    const entry = this.pending.get(id);
    if (!entry) return `approval ${id || "<id>"}: no such pending approval; it may have expired or been decided`;
    const { approval } = entry;
    if (!approval.approvers.includes(approver)) return `approval ${id}: ${approver} is not an approver of it`;
    this.close(id);
    if (!grant) {
      approval.log(`approval ${id} for ${approval.action} denied by ${approver}`);
      approval.wake(`Approval ${id} denied by ${approver}: ${approval.action}.`);
      return `Approval ${id} denied: ${approval.action} will not run.`;
    }
    let outcome: string;
    try {
      await approval.execute();
      outcome = "succeeded";
    } catch (error) {
      outcome = `failed: ${error instanceof Error ? error.message : String(error)}`;
    }
    approval.log(`approval ${id} for ${approval.action} granted by ${approver}: ${outcome}`);
    approval.wake(`Approval ${id} granted by ${approver}: ${approval.action} ${outcome}.`);
    return `Approval ${id} granted: ${approval.action} ${outcome}.`;
  }

  /** Drops a stopped runtime's requests without waking it. */
  public dropRuntime(runtimeId: string): void {
    for (const [id, { approval }] of this.pending) if (approval.runtimeId === runtimeId) this.close(id);
  }

  public dispose(): void {
    for (const id of [...this.pending.keys()]) this.close(id);
  }

  private expire(id: string): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.close(id);
    entry.approval.log(`approval ${id} for ${entry.approval.action} expired`);
    entry.approval.wake(`Approval ${id} expired: ${entry.approval.action}.`);
  }

  private close(id: string): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.pending.delete(id);
  }
}
