decode 'Pollara 400'
