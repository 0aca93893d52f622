import type { Projector } from '@wagers/platform/projections/projector';
import { usersProjector } from './users/users.projector.ts';

/** Every projector this service runs. */
export const allProjectors: Projector[] = [usersProjector];
