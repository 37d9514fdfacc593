import { Reflector } from '@nestjs/core';
import type { Role } from './authenticated-user.interface.js';

/**
 * The least role a route or tool needs: `@Roles('admin')`. Checked by `RolesGuard`; an admin
 * may do everything a reader may.
 */
export const Roles = Reflector.createDecorator<Role>();
