Hello {{.Name | default "world"}}
