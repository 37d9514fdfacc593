import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { RETAINED_CALLS } from '../tool-audit.log.js';

/** The params of `com.example/audit.recent`. Every field is optional. */
export class RecentCallsQuery {
  /** How many calls to return, newest first. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(RETAINED_CALLS)
  limit?: number = 10;

  /** Only the calls with this outcome. */
  @IsOptional()
  @IsIn(['success', 'error'])
  outcome?: 'success' | 'error';
}
