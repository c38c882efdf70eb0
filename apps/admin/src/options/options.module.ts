import { Module } from '@nestjs/common';
import { PaymentMethodsModule } from '../status/payment-methods.module';
import { NoticeController } from './notice.controller';
import { OptionsController } from './options.controller';
import { OptionsRepository } from './options.repository';
import { OptionsService } from './options.service';

@Module({
  imports: [PaymentMethodsModule],
  controllers: [OptionsController, NoticeController],
  providers: [OptionsRepository, OptionsService],
})
export class OptionsModule {}
