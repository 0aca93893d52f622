/** The creator's promise, in the words the wizard, the review and the bet page all show. */
export const REPORT_STANDS_TEXT =
  'If my friend has not answered 7 days after my report, my report stands.';
