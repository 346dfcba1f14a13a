export interface InfoField {
  field: string;
  label: string;
}
