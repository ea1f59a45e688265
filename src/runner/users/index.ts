/**
 * Simulated users' public face: what the run loop and the front door (the fixtures check before a
 * run) use of them, and the user model a re-judge replays. Imported from here, never a module of
 * this folder (the `runner-public-face` rule in .dependency-cruiser.cjs).
 */
export { simulatedMessages, type SimulatedUserTally, type UserModel } from './simulated-user.js';
export { withSimulatedUser } from './simulated-user-result.js';
export { checkUserFixtures, type UserFixtures } from './user-fixtures-check.js';
export { userModels } from './user-model.js';
export { userModelRef } from './user-model-ref.js';
