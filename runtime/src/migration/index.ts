export {
  type MigrationFailure,
  migrateStorageVersion,
  StorageMigrationError,
  type StorageVersionMigrationOptions,
  type StorageVersionMigrationResult,
} from "./storage-version.js";
