export {
  ConversionError,
  type Converter,
  defineSpoke,
  hubAndSpokes,
  type SpokeConversion,
  type SpokeFunctions,
} from "./hubspoke.js";
export { ConversionRegistry } from "./registry.js";
