/** Profile `resources` settings that govern attachments (04 EX-27); budgets reset per request. */
export interface ResourceSettings {
  /** Embed images in requests; needs every candidate model to declare `image` input (EX-38). */
  imageInput: boolean;
  maxImageCount: number;
  maxImageBytes: number;
  maxTotalImageBytes: number;
  maxImageDimension: number;
  /** Active images kept before the oldest viewed `recent` ones are released (EX-23); at least 0. */
  recentImageCount: number;
  /** Released `recent` images come in multiples of this; at least 1. */
  imagePruneBatchSize: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_RESOURCE_SETTINGS: Readonly<ResourceSettings> = Object.freeze({
  imageInput: false,
  maxImageCount: 4,
  maxImageBytes: 5 * MiB,
  maxTotalImageBytes: 10 * MiB,
  maxImageDimension: 8000,
  recentImageCount: 4,
  imagePruneBatchSize: 2,
});

/** Defaults filled in, counts clamped to their minimum. */
export function resolveResourceSettings(settings: Partial<ResourceSettings> = {}): ResourceSettings {
  const merged = { ...DEFAULT_RESOURCE_SETTINGS, ...withoutUndefined(settings) };
  return {
    ...merged,
    recentImageCount: Math.max(0, Math.floor(merged.recentImageCount)),
    imagePruneBatchSize: Math.max(1, Math.floor(merged.imagePruneBatchSize)),
  };
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}
