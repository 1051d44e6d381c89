// Controller names label metrics, so two controllers with one name would report into the same series.
const usedNames = new Set<string>();

/** Reserves a controller name for this process; throws controller-runtime's error on a duplicate. */
export function claimControllerName(name: string, skipNameValidation = false): void {
  if (skipNameValidation) return;
  if (usedNames.has(name)) {
    throw new Error(
      `controller with name ${name} already exists. Controller names must be unique to avoid multiple controllers reporting the same metric. This validation can be disabled via the skipNameValidation option`,
    );
  }
  usedNames.add(name);
}
