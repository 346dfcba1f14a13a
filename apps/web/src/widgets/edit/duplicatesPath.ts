/** The editors' duplicates report (features/duplicates); not a page of the portal spec, so not in the contract's route table. */
export const DUPLICATES_PATH = '/duplicates';
