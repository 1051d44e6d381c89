export {
  type ConditionInput,
  findStatusCondition,
  isStatusConditionFalse,
  isStatusConditionPresentAndEqual,
  isStatusConditionTrue,
  nowTime,
  removeStatusCondition,
  setStatusCondition,
} from "./conditions.js";
