import { Module } from '@nestjs/common';
import { SettingsReadModel } from './settings-read-model';

@Module({ providers: [SettingsReadModel], exports: [SettingsReadModel] })
export class SettingsModule {}
