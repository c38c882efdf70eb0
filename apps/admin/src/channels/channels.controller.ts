import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  channelIdSchema,
  channelListQuerySchema,
  channelSearchQuerySchema,
  channelTestQuerySchema,
  createChannelRequestSchema,
  ErrorCode,
  ok,
  updateChannelRequestSchema,
  type ChannelPage,
  type ChannelTestAnswer,
  type ChannelView,
  type Envelope,
} from '@tollgate/contracts';
import {
  AppException,
  CurrentIdentity,
  RequestLocale,
  Role,
  Roles,
  type Identity,
  type Locale,
} from '@tollgate/platform';
import { message } from '../i18n/messages';
import { ChannelsService } from './channels.service';

/** new-api's /api/channel calls, for administrators (the gateway checks the role too). */
@Roles(Role.Admin)
@Controller('api/channel')
export class ChannelsController {
  constructor(private readonly channels: ChannelsService) {}

  @Get()
  async list(@Query() query: unknown): Promise<Envelope<ChannelPage>> {
    return ok(await this.channels.list(channelListQuerySchema.parse(query)));
  }

  @Get('search')
  async search(@Query() query: unknown): Promise<Envelope<ChannelPage>> {
    return ok(await this.channels.list(channelSearchQuerySchema.parse(query)));
  }

  /** new-api's answer: `{success, message, time}` with time in seconds, HTTP 200 whether the channel worked or not. */
  @Get('test/:id')
  async test(
    @Param('id') id: string,
    @Query() query: unknown,
    @RequestLocale() locale: Locale,
  ): Promise<ChannelTestAnswer> {
    const { model } = channelTestQuerySchema.parse(query);
    const result = await this.channels.test(channelIdSchema.parse(id), model, undefined, locale);
    return {
      success: result.success,
      message: result.message,
      time: result.time_ms / 1000,
      data: { model: result.model, time_ms: result.time_ms },
    };
  }

  /** new-api's "fetch models": the models the channel's upstream lists for its key, via relay. */
  @Get('fetch_models/:id')
  async fetchModels(@Param('id') id: string, @RequestLocale() locale: Locale): Promise<Envelope<string[]>> {
    const result = await this.channels.upstreamModels(channelIdSchema.parse(id), locale);
    if (!result.success) throw new AppException(ErrorCode.UpstreamServiceDown, result.message);
    return ok(result.models);
  }

  @Get(':id')
  async get(@Param('id') id: string, @RequestLocale() locale: Locale): Promise<Envelope<ChannelView>> {
    return ok(await this.channels.get(channelIdSchema.parse(id), locale));
  }

  /** One channel answers as itself, a batch as the list of channels it made. */
  @Post()
  @HttpCode(200)
  async create(
    @CurrentIdentity() identity: Identity,
    @Body() body: unknown,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<ChannelView | ChannelView[]>> {
    const request = createChannelRequestSchema.parse(body);
    const created = await this.channels.create(identity, request, locale);
    const answer = created.length === 1 && request.keys.length === 1 ? created[0]! : created;
    return ok(answer, message('channel_created', locale));
  }

  @Put()
  async update(
    @CurrentIdentity() identity: Identity,
    @Body() body: unknown,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<ChannelView>> {
    return ok(
      await this.channels.update(identity, updateChannelRequestSchema.parse(body), locale),
      message('channel_updated', locale),
    );
  }

  @Delete(':id')
  async delete(
    @CurrentIdentity() identity: Identity,
    @Param('id') id: string,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<null>> {
    await this.channels.delete(identity, channelIdSchema.parse(id), locale);
    return ok(null, message('channel_deleted', locale));
  }
}
