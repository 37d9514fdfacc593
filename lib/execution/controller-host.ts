import type { InstanceWrapper } from '../utils/nest-internals.js';

/** What `ExternalContextCreator#create` calls to find the module of the method's class. */
type HostModuleKey = (instance: object, classRef: Function, inquirerId?: string) => string;

/**
 * An `ExternalContextCreator` that finds the module of a controller. Nest looks for the
 * module of the method's class among the modules' providers, to resolve the enhancers
 * given as classes (`@UseGuards(AdminGuard)`, `@Param('id', MyPipe)`, class interceptors and
 * filters) from that module's injectables. A controller is no provider: the lookup found
 * no module, and every such enhancer of a route published as a tool was silently left out,
 * its guard included. For a controller's method this answers the controller's own module,
 * where Nest's router resolves the same enhancers for HTTP; anything else is unchanged.
 */
export function withControllerHost<T extends object>(creator: T, wrapper: InstanceWrapper): T {
  const host = wrapper.host;
  if (!host || host.controllers.get(wrapper.token) !== wrapper) return creator;
  const lookup = (creator as unknown as { getHostModuleKey: HostModuleKey }).getHostModuleKey;
  const getHostModuleKey: HostModuleKey = function (this: T, instance, classRef, inquirerId) {
    return inquirerId === wrapper.id
      ? host.token
      : lookup.call(this, instance, classRef, inquirerId);
  };
  return Object.create(creator, { getHostModuleKey: { value: getHostModuleKey } }) as T;
}
