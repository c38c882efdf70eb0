import type { CatalogChannel } from '@tollgate/contracts';

/** One channel to try, with the model name that channel's upstream knows (model_mapping applied). */
export interface RouteAttempt {
  channel: CatalogChannel;
  upstreamModel: string;
}
