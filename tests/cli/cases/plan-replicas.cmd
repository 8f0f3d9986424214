plan --example=replicas
