/** Dollars of one role; `unpriced` counts the cases whose part of it could not be priced (left out of `usd`). */
export interface RoleEstimate {
  usd: number;
  unpriced: number;
}
