catalog list servers
