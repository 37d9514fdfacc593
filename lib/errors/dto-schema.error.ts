/**
 * A tool's arguments DTO cannot be turned into a JSON Schema that matches what
 * class-validator enforces. Thrown at bootstrap, so the app does not start with a tool
 * whose calls would all fail or whose schema would mislead the model.
 * @publicApi
 */
export class DtoSchemaError extends Error {
  constructor(
    /** The name of the class that declares the property. */
    readonly dtoName: string,
    readonly propertyName: string,
    /** What is wrong, then what to change, each a sentence. */
    problem: string,
    fix: string,
  ) {
    super(`Cannot build the JSON Schema of ${dtoName}.${propertyName}: ${problem} ${fix}`);
    this.name = 'DtoSchemaError';
  }
}
