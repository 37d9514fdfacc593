import type {
  ConstraintConversion,
  ConstraintConverters,
} from './constraint-converter.interface.js';
import { bound, fixed, NOTHING, options } from './constraint-converter.helpers.js';

const numberType = (constraints: readonly unknown[]): ConstraintConversion => {
  const places = options(constraints[0]).maxDecimalPlaces;
  if (places === undefined) return { schema: { type: 'number' } };
  const detail = `@IsNumber({ maxDecimalPlaces: ${String(places)} }) is enforced at call time only`;
  return { schema: { type: 'number' }, gaps: [{ gap: 'number-decimal-places', detail }] };
};

// validator.js isDivisibleBy computes `value % parseInt(num, 10)`, so 2.5 means 2, and
// class-validator rejects everything when the divisor is not a number.
const divisibleBy = (constraints: readonly unknown[]): ConstraintConversion => {
  const divisor =
    typeof constraints[0] === 'number' ? Number.parseInt(String(constraints[0]), 10) : NaN;
  if (!Number.isFinite(divisor) || divisor === 0) return { schema: { type: 'number', ...NOTHING } };
  return { schema: { type: 'number', multipleOf: Math.abs(divisor) } };
};

/** Numbers. class-validator's min/max reject anything but a number, hence the type. */
export const NUMBER_CONSTRAINT_CONVERTERS: ConstraintConverters = {
  isNumber: { decorator: 'IsNumber', convert: numberType },
  min: { decorator: 'Min', convert: bound('minimum', 'number') },
  max: { decorator: 'Max', convert: bound('maximum', 'number') },
  isPositive: { decorator: 'IsPositive', convert: fixed({ type: 'number', exclusiveMinimum: 0 }) },
  isNegative: { decorator: 'IsNegative', convert: fixed({ type: 'number', exclusiveMaximum: 0 }) },
  isDivisibleBy: { decorator: 'IsDivisibleBy', convert: divisibleBy },
};
