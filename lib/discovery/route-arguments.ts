/**
 * The flat arguments of a route tool split back into the shapes the route reads over
 * HTTP: path parameters, query and body, each by Nest's `RouteParamtypes` (`PARAM`, `QUERY`,
 * `BODY`). Built by the arguments check once the call is valid; the params factory hands
 * each `@Param()`, `@Query()` and `@Body()` its value from here, and the route's pipes then
 * run on it as they do over HTTP.
 */
export class RouteArguments {
  /** The validated DTO instance of a whole-object parameter (`@Body() dto`), by paramtype. */
  private readonly whole = new Map<number, object>();
  /** The values of named parameters (`@Param('id')`), by paramtype, then name. */
  private readonly named = new Map<number, Record<string, unknown>>();

  setWhole(paramtype: number, value: object): void {
    this.whole.set(paramtype, value);
  }

  setNamed(paramtype: number, name: string, value: unknown): void {
    const values = this.named.get(paramtype) ?? {};
    values[name] = value;
    this.named.set(paramtype, values);
  }

  /**
   * What a parameter decorator of `paramtype` with `data` receives, as Nest's own route
   * params factory reads `req.params[data]` or `req.params`.
   */
  valueOf(paramtype: number, data: unknown): unknown {
    const whole = this.whole.get(paramtype) as Record<string, unknown> | undefined;
    if (typeof data === 'string') return this.named.get(paramtype)?.[data] ?? whole?.[data];
    return whole ?? { ...this.named.get(paramtype) };
  }
}
