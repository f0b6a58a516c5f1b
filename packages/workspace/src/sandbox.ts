import { mkdir, realpath } from "node:fs/promises";
import { join, posix } from "node:path";
import { Bash, InMemoryFs, MountableFs } from "just-bash";
import type { IFileSystem } from "just-bash";
import type { ResourceCenter } from "koishi-plugin-ishiki";
import { ByteQuota } from "./fs/byte-quota.js";
import { HostFs } from "./fs/host-fs.js";
import { ResourceFs } from "./fs/resource-fs.js";
import type { HostMount } from "./mounts.js";
import type { WorkspaceSettings } from "./settings.js";
import type { Skill } from "./skills/skill.js";

export const HOME = "/home";
export const WORKSPACE = "/home/workspace";
export const SKILLS = "/home/skills";
export const RESOURCE_MOUNT = "/home/.ishiki";

/** The interpreter's own deadline sits behind the tool's timeout, so the tool reports the timeout itself. */
const BACKSTOP_MS = 1000;
/** Room above the two capped streams so the interpreter's aggregate cap never cuts before ours. */
const OUTPUT_SLACK_BYTES = 1024 * 1024;

export interface SandboxOptions {
  /** Absolute runtime home; it exists. */
  home: string;
  settings: WorkspaceSettings;
  mounts: readonly HostMount[];
  skills: readonly Skill[];
  resources: ResourceCenter;
}

interface Built {
  bash: Bash;
  fs: IFileSystem;
  /** Host-backed mounts, deepest target first. */
  hosts: Array<{ target: string; fs: HostFs }>;
}

/**
 * One runtime's just-bash sandbox (WS-2, WS-3), built on first use and shared by the tools, the schemes and the
 * instructions. Layout: `/home` is the runtime home, read-only, without `resources/`; `/home/workspace` is the
 * writable `<home>/workspace`; `/home/skills/<name>` each skill, read-only; `/home/.ishiki` the stored
 * resources; then the user mounts. Everything else is an in-memory scratch file system.
 */
export class Sandbox {
  private built?: Promise<Built>;

  public constructor(public readonly options: SandboxOptions) {}

  private build(): Promise<Built> {
    this.built ??= this.create();
    return this.built;
  }

  private async create(): Promise<Built> {
    const { home, settings, mounts, skills, resources } = this.options;
    await mkdir(join(home, "workspace"), { recursive: true });
    const homeFs = new HostFs({ root: await realpath(home), target: HOME, readOnly: true, hidden: ["resources"] });
    const workspaceRoot = await realpath(join(home, "workspace"));
    // One budget for everything the sandbox can write on the host.
    const quota = new ByteQuota(settings.quotaBytes, [workspaceRoot, ...mounts.filter((mount) => !mount.readOnly).map((mount) => mount.root)]);
    const workspaceFs = new HostFs({ root: workspaceRoot, target: WORKSPACE, readOnly: false, quota });
    const hosts = [
      { target: WORKSPACE, fs: workspaceFs },
      ...skills.map((skill) => ({ target: posix.join(SKILLS, skill.name), fs: new HostFs({ root: skill.dir, target: posix.join(SKILLS, skill.name), readOnly: true }) })),
      ...mounts.map((mount) => ({ target: mount.target, fs: new HostFs({ root: mount.root, target: mount.target, readOnly: mount.readOnly, quota }) })),
    ];
    const inside = (target: string): string => target.slice(HOME.length);
    const homeMounts = [
      { mountPoint: inside(WORKSPACE), filesystem: workspaceFs as IFileSystem },
      { mountPoint: inside(RESOURCE_MOUNT), filesystem: new ResourceFs(resources, RESOURCE_MOUNT) },
      ...hosts.filter((host) => host.target.startsWith(`${SKILLS}/`)).map((host) => ({ mountPoint: inside(host.target), filesystem: host.fs as IFileSystem })),
    ];
    const base = new InMemoryFs();
    await base.mkdir("/tmp", { recursive: true });
    const fs = new MountableFs({
      base,
      mounts: [
        { mountPoint: HOME, filesystem: new MountableFs({ base: homeFs, mounts: homeMounts }) },
        ...hosts.filter((host) => !host.target.startsWith(`${HOME}/`)).map((host) => ({ mountPoint: host.target, filesystem: host.fs as IFileSystem })),
      ],
    });
    await fs.mkdir(settings.cwd, { recursive: true }).catch(() => undefined);
    const bash = new Bash({
      fs,
      cwd: settings.cwd,
      env: { HOME: WORKSPACE },
      python: settings.python,
      javascript: settings.javascript,
      // WS-17: no allow-lists; the public internet only, never loopback, private or link-local addresses.
      ...(settings.network ? { network: { dangerouslyAllowFullInternetAccess: true, denyPrivateRanges: true } } : {}),
      executionLimits: {
        maxExecutionTimeMs: settings.timeoutMs + BACKSTOP_MS,
        // The embedded runtimes have deadlines of their own (30 s by default): align them with the tool's.
        maxJsTimeoutMs: settings.timeoutMs,
        maxPythonTimeoutMs: settings.timeoutMs,
        maxSqliteTimeoutMs: settings.timeoutMs,
        maxOutputSize: 2 * settings.maxExecutionOutputBytes + OUTPUT_SLACK_BYTES,
      },
    });
    hosts.push({ target: HOME, fs: homeFs });
    hosts.sort((a, b) => b.target.length - a.target.length);
    return { bash, fs, hosts };
  }

  /** The shell; every `exec` starts from a fresh shell state over the shared file system. */
  public async shell(): Promise<Bash> {
    return (await this.build()).bash;
  }

  /** The sandbox file system, exactly what `cat` sees. */
  public async fs(): Promise<IFileSystem> {
    return (await this.build()).fs;
  }

  /** The confined real host path behind a sandbox path, or undefined for virtual paths. */
  public async locate(path: string): Promise<string | undefined> {
    const normalized = posix.normalize(path);
    if (normalized === RESOURCE_MOUNT || normalized.startsWith(`${RESOURCE_MOUNT}/`)) return undefined;
    for (const host of (await this.build()).hosts) {
      if (normalized === host.target || normalized.startsWith(`${host.target}/`)) return host.fs.contain(normalized.slice(host.target.length) || "/");
    }
    return undefined;
  }
}
