import { booleanProblem, isOptionsObject } from './option-checks.js';
import { TELEMETRY_OPTION_KEYS } from './option-keys.js';

/**
 * The problems of the `telemetry` option: `false`, or an object of switches (its unknown
 * keys are reported with the others, by the module options' unknown-key check).
 */
export function telemetryOptionsProblems(telemetry: unknown): string[] {
  if (telemetry === undefined || telemetry === false) return [];
  if (!isOptionsObject(telemetry)) {
    return [
      '"telemetry" must be false (no spans or metrics) or an object such as { recordArguments: true }',
    ];
  }
  return Object.keys(TELEMETRY_OPTION_KEYS)
    .map((key) => booleanProblem(`telemetry.${key}`, telemetry[key]))
    .filter((problem): problem is string => problem !== undefined);
}
