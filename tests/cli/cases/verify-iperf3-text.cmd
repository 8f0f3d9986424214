verify --link 10GbE tests/fixtures/verify/iperf3-394-10g-retransmits.txt
