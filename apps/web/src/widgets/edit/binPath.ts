/** The editors' bin (features/bin); not a page of the portal spec, so not in the contract's route table. */
export const BIN_PATH = '/bin';
