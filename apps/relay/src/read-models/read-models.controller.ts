import { Controller, Get, Param } from '@nestjs/common';
import { ErrorCode, ok, Role } from '@tollgate/contracts';
import { AppException, Roles } from '@tollgate/platform';
import { ReadModelsService, type ReadModelName } from './read-models.service';

const NAMES: readonly ReadModelName[] = ['tokens', 'users', 'channels', 'prices', 'balances'];

/**
 * Operators' view of relay's in-memory tables. Internal: the gateway routes no public path here,
 * and only a root identity signed by the gateway's secret may call it.
 */
@Controller('internal/read-models')
@Roles(Role.Root)
export class ReadModelsController {
  constructor(private readonly readModels: ReadModelsService) {}

  @Get()
  describe() {
    return ok(this.readModels.describe());
  }

  /** Whether an entity is present, with its version and update time where it has them; never the entity itself. */
  @Get(':name/:key')
  entry(@Param('name') name: string, @Param('key') key: string) {
    if (!NAMES.includes(name as ReadModelName)) {
      throw new AppException(ErrorCode.NotFound, `No read model "${name}"`);
    }
    const value: unknown = this.readModels.get()[name as ReadModelName].get(key);
    const field = (f: string): number | null =>
      value && typeof value === 'object' && f in value
        ? ((value as Record<string, unknown>)[f] as number)
        : null;
    return ok({ present: value !== undefined, version: field('version'), updated_at: field('updated_at') });
  }
}
