print('it\'s')
