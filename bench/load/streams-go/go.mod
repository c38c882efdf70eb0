module tollgate/bench/streams-go

go 1.22
