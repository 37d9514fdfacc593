import type { ConstraintConverters } from './constraint-converter.interface.js';
import { bound, fixed } from './constraint-converter.helpers.js';

/** Arrays. Each of these rejects a value that is not an array. */
export const ARRAY_CONSTRAINT_CONVERTERS: ConstraintConverters = {
  arrayMinSize: { decorator: 'ArrayMinSize', convert: bound('minItems', 'array') },
  arrayMaxSize: { decorator: 'ArrayMaxSize', convert: bound('maxItems', 'array') },
  arrayNotEmpty: { decorator: 'ArrayNotEmpty', convert: fixed({ type: 'array', minItems: 1 }) },
  arrayUnique: { decorator: 'ArrayUnique', convert: fixed({ type: 'array', uniqueItems: true }) },
};
