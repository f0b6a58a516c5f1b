import type { Gateway } from "@yesimagent/gateway";

/** The references a profile's `model` may call: every member of a group (circuit-open ones included), else itself. */
function candidateRefs(gateway: Pick<Gateway, "groups">, model: string): readonly string[] {
  return gateway.groups().find((group) => group.name === model)?.members ?? [model];
}

function declaresImage(gateway: Pick<Gateway, "model">, ref: string): boolean {
  try {
    return gateway.model(ref)?.metadata.input?.includes("image") === true;
  } catch {
    // An unresolvable reference declares nothing; its own error surfaces when the model is built.
    return false;
  }
}

/**
 * The `imageInput` gate (04 EX-38, EX-39): every candidate must declare `image` input, undeclared counting as
 * lacking; whether a provider accepts media inside tool results plays no part. Throws the activation error.
 */
export function assertImageInput(gateway: Pick<Gateway, "groups" | "model">, model: string): void {
  for (const ref of candidateRefs(gateway, model)) {
    if (!declaresImage(gateway, ref)) throw new Error(`resources.imageInput requires image input; ${ref} does not declare it`);
  }
}
