import { Module } from '@nestjs/common';
import { NoticeController } from './notice.controller';
import { OptionsController } from './options.controller';
import { OptionsRepository } from './options.repository';
import { OptionsService } from './options.service';

@Module({
  controllers: [OptionsController, NoticeController],
  providers: [OptionsRepository, OptionsService],
})
export class OptionsModule {}
